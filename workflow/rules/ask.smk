rule ask:
    input:
        unpack(ask_inputs),
    output:
        manifest="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/solution/manifest.json",
    log:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/ask.log",
    resources:
        **endpoint_resources(),
    run:
        steps.ask(PLAN, wildcards, input, output, log)
