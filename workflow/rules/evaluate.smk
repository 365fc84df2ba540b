rule evaluate:
    input:
        batch_inputs,
    output:
        LAYOUT.batch_record("{suite}", "{attempt}", "{batch}"),
    log:
        LAYOUT.batch_record("{suite}", "{attempt}", "{batch}", "log"),
    threads: batch_threads
    resources:
        **batch_resources(),
    run:
        evaluate.run(PLAN, wildcards, output, threads, resources, log)
