"""The paper's RQ3: fine-tune a model on original problems and measure how much of the gain survives
mutation (:mod:`.finetune`), and a probe that ranks problems by how much better a model knows their
answer after the original text than after a rewrite (:mod:`.probe`)."""

# How the fine-tuning sees a problem: the tasks' prompt -> answer, or the data file's own text.
TRAIN_FORMATS = ("prompt", "raw")

# What can be fine-tuned on: CRUXEval output prediction (prompt -> output), and a translation benchmark's
# prompt -> its reference Java. CodeNet is listed so that asking for it says why it cannot be (it has no
# reference Java).
CONTAMINABLE = ("cruxeval", "transcoder", "avatar", "codenet")

# The variants compared when none are asked for: the static task and the paper's FUV rewrite (same
# answers) against the answer-changing variants, whose answers a memorising model cannot know.
DEFAULT_VARIANTS = {"cruxeval": "orig,fuv,newinput,newoutput,fuvi,fuvio", "translation": "orig,fuv,newoutput,fuvo"}
