"""Reading what the tasks produced: lm-eval output folders as runs (:mod:`.runs`), the statistics of
a comparison (:mod:`.comparisons`), the report (:mod:`.report`), the paper's tables for this engine
(:mod:`.stats`) and a page of logged samples (:mod:`.viewer`)."""
