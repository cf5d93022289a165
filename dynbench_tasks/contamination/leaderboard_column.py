"""The leaderboard's recitation column: each CRUXEval row's verdict as ``dynbench detect`` gives it,
from the row's runs that ``dynbench verify`` verified in full. Verify has rebuilt their documents and
scored their answers again, and :mod:`.detect` judges those answers again here, so a submitter sets
neither the documents nor the flags a verdict rests on; a run verify did not accept counts for nothing."""

from __future__ import annotations

from collections.abc import Callable

from dynbench_tasks.analysis.leaderboard import Recitation, Submission
from dynbench_tasks.analysis.verify import FAILED, VERIFIED, TaskVerdict
from dynbench_tasks.contamination.detect import BENCHMARK, gather, verdicts
from dynbench_tasks.contamination.verdict import CONTAMINATED

NO_EVIDENCE = ("no run verified in full of a CRUXEval output task with new answers (newinput, fuvi, fuvio, "
               "newoutput) with logged samples")


def recitation_column(checked: dict[int, TaskVerdict]) -> Callable[[Submission], Recitation | None]:
    """What gives a submission its recitation cell; ``checked``: verify's verdict by ``id`` of each run."""

    def recite(submission: Submission) -> Recitation | None:
        if submission.benchmark != BENCHMARK:
            return None
        accepted = [run for run in submission.runs if id(run) in checked and checked[id(run)].outcome == VERIFIED]
        found = verdicts(gather(accepted))
        if not found:
            # a run whose recorded flags were dropped fails verify: named, so that no verdict never reads as clean
            failed = sorted({run.task for run in submission.runs if id(run) in checked and run.samples
                             and checked[id(run)].outcome == FAILED})
            detail = NO_EVIDENCE + (f"; {', '.join(failed)} failed dynbench verify" if failed else "")
            return Recitation(None, None, detail, False)
        ((_, verdict),) = found.items()
        detail = (f"{verdict.stale_documents} of {verdict.documents} documents stale against "
                  f"{verdict.decoy_documents} decoy (samples {verdict.stale} / {verdict.decoy} of {verdict.samples})")
        return Recitation(verdict.verdict, verdict.p_value, detail, verdict.verdict == CONTAMINATED)

    return recite
