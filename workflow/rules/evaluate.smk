rule evaluate:
    input:
        batch_inputs,
    output:
        "results/runs/{agent}/{suite}/batches/{attempt}/{batch}.json",
    log:
        "results/runs/{agent}/{suite}/batches/{attempt}/{batch}.log",
    resources:
        **batch_resources(),
    run:
        steps.evaluate(PLAN, wildcards, output, resources, log)
