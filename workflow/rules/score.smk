rule score:
    input:
        unpack(convergence_record),
        response="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/response.json",
        manifest="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/solution/manifest.json",
        run="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/run/run.json",
        ref_json="results/references/{suite}/{case}/reference.json",
        ref_h5="results/references/{suite}/{case}/reference.h5",
        calibration="results/calibration/{suite}/{case}.json",
    output:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/score.json",
    log:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/score.log",
    group:
        execution_group
    resources:
        **group_slot(),
        runtime=2,
    run:
        steps.score(PLAN, wildcards, input, output)


rule finalize:
    input:
        lambda wc: PLAN.score_paths(wc.agent, wc.suite, wc.case, wc.sample),
    output:
        "results/runs/{agent}/{suite}/{case}/{sample}/final.json",
    log:
        "results/runs/{agent}/{suite}/{case}/{sample}/final.log",
    run:
        steps.finalize(PLAN, input, output)
