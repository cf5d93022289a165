"""A tiny random GPT-2 with a word-level tokenizer trained on a few strings, built in well under a
second; it runs through ``lm_eval --model hf`` on CPU without any download."""

from __future__ import annotations

from pathlib import Path

TRAINING_TEXT = [
    "def f(nums): return nums assert f([1, 2, 3]) == [1, 2, 3] # done",
    "Based on the given Python code complete the assert statement with the output",
    "0 1 2 3 4 5 6 7 8 9 True False None 'a' 'b' [ ] ( ) { } , : = == + - * #",
]


def build_tiny_model(folder: Path) -> Path:
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.train_from_iterator(TRAINING_TEXT, trainers.WordLevelTrainer(special_tokens=["[UNK]", "<eos>"]))
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer, unk_token="[UNK]", eos_token="<eos>", pad_token="<eos>")
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=len(fast), n_positions=1024, n_embd=16, n_layer=1, n_head=2,
                        bos_token_id=fast.eos_token_id, eos_token_id=fast.eos_token_id)
    GPT2LMHeadModel(config).save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder
