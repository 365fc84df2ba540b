rule evaluate:
    input:
        batch_inputs,
    output:
        "results/batches/{suite}/{attempt}/{batch}.json",
    log:
        "results/batches/{suite}/{attempt}/{batch}.log",
    resources:
        **batch_resources(),
    run:
        steps.evaluate(PLAN, wildcards, output, resources, log)
