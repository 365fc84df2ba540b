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


rule converge:
    input:
        manifest="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/solution/manifest.json",
        run="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/run/run.json",
        ref_json="results/references/{suite}/{case}/reference.json",
        ref_h5="results/references/{suite}/{case}/reference.h5",
        calibration="results/calibration/{suite}/{case}.json",
    output:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/converge/converge.json",
    log:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/converge.log",
    group:
        execution_group
    resources:
        **execution_resources(),
        **group_slot(),
    run:
        steps.converge(PLAN, wildcards, input, output, resources)
