rule evaluate:
    input:
        batch_inputs,
    output:
        LAYOUT.batch_record("{suite}", "{attempt}", "{batch}"),
    log:
        LAYOUT.batch_record("{suite}", "{attempt}", "{batch}", "log"),
    resources:
        **batch_resources(),
    run:
        evaluate.run(PLAN, wildcards, output, resources, log)
