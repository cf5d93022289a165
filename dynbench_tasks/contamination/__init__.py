"""The paper's RQ3: fine-tune a model on original problems and measure how much of the gain survives
mutation (:mod:`.finetune`), and a probe that ranks problems by how much better a model knows their
answer after the original text than after a rewrite (:mod:`.probe`)."""

# How the fine-tuning sees a problem: the tasks' prompt -> answer, or the data file's own text.
TRAIN_FORMATS = ("prompt", "raw")
