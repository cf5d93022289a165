"""The Java judge: warm JVMs that compile and run translations in batches (:mod:`.pool`, with the
Java side in ``java/dynbench``), the JDK it needs (:mod:`.jdk`), just enough Java structure to lift a
translation out of a reply (:mod:`.java_source`) and jobs made from replies (:mod:`.jobs`)."""
