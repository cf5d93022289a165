"""The names under which a task counts its documents, in ``metadata.dynbench.counts`` of the results
and in reports: the mutation statuses (:data:`mutators.programs.STATUSES`), plus these."""

STATIC_STATUS = "original"  # the mutation status of every document of a static task
NOT_JUDGEABLE = "not_judgeable"  # problems no answer could be scored on (no tests, no harness)
SCORED = "scored"  # documents the task scores
UNVERIFIED = "unverified"  # mutated programs on which no input verified the mutant (see verified_inputs)
NEW_ANSWER = "new_answer"  # answer-changing chains: documents whose answer is no longer the published one
