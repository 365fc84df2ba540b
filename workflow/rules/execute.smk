rule execute:
    input:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/solution/manifest.json",
    output:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/run/run.json",
    log:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/execute.log",
    group:
        execution_group
    resources:
        **execution_resources(),
        **group_slot(),
    run:
        steps.execute(PLAN, wildcards, input, output, resources)
