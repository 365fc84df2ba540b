rule generate:
    input:
        unpack(mutant_calibration),
        messages="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/messages.json",
    output:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/response.json",
    log:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/generate.log",
    resources:
        **endpoint_resources(),
    run:
        steps.generate(PLAN, wildcards, input, output)


rule extract:
    input:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/response.json",
    output:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/solution/manifest.json",
    log:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/extract.log",
    run:
        steps.extract(PLAN, wildcards, input, output)
