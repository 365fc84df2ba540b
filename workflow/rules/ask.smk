rule ask:
    input:
        unpack(ask_inputs),
    output:
        LAYOUT.ask_record("{suite}", "{attempt}", "{batch}"),
    log:
        LAYOUT.ask_record("{suite}", "{attempt}", "{batch}", "log"),
    threads: 0
    resources:
        **endpoint_resources(),
    run:
        ask.run(PLAN, wildcards, input, output, resources, log)
