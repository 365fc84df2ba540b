rule execute:
    input:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/solution/manifest.json",
    output:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/run/run.json",
    log:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/execute.log",
    resources:
        **execution_resources(),
    run:
        steps.execute(PLAN, wildcards, input, output)
