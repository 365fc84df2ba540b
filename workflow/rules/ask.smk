rule ask:
    input:
        unpack(ask_inputs),
    output:
        md="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/prompt.md",
        messages="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/messages.json",
        response="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/response.json",
        manifest="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/solution/manifest.json",
    log:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/ask.log",
    resources:
        **endpoint_resources(),
    run:
        steps.ask(PLAN, wildcards, input, output, log)
