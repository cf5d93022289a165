"""lm-eval's own command line, for data-parallel runs on CPU. lm-eval's ``hf`` model splits the
documents between processes only when it sees several GPUs; ``hf-cpu-dp`` is the same model taking
its rank and world size from accelerate's CPU process group, so the sharding, gathering and scoring
that a multi-GPU run does can be run here. Start it with
``ACCELERATE_USE_CPU=true accelerate launch --multi_gpu --num_processes N tests/data_parallel_cpu.py``
followed by lm_eval's arguments."""

from accelerate import Accelerator
from lm_eval.__main__ import cli_evaluate
from lm_eval.api.registry import register_model
from lm_eval.models.huggingface import HFLM


@register_model("hf-cpu-dp")
class CpuDataParallelHFLM(HFLM):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        accelerator = Accelerator()
        if accelerator.num_processes > 1:
            self.accelerator = accelerator
            self._rank, self._world_size = accelerator.process_index, accelerator.num_processes


if __name__ == "__main__":
    cli_evaluate()
