rule reference:
    input:
        case_files,
        released_reference_files,
    output:
        json=LAYOUT.reference("{suite}", "{case}", "json"),
        h5=LAYOUT.reference("{suite}", "{case}", "h5"),
    log:
        LAYOUT.case_log("reference", "{suite}", "{case}"),
    resources:
        **execution_resources(scale=30),
    run:
        reference.run(PLAN, wildcards, output, log)
