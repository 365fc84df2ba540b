rule ask:
    input:
        unpack(ask_inputs),
    output:
        manifest=LAYOUT.attempt_file(*ATTEMPT, MANIFEST),
    log:
        LAYOUT.attempt_file(*ATTEMPT, "ask.log"),
    resources:
        **endpoint_resources(),
    run:
        ask.run(PLAN, wildcards, input, output, log)
