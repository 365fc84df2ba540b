rule prompt:
    input:
        unpack(previous_attempt),
        case_files,
    output:
        md="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/prompt.md",
        messages="results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/messages.json",
    log:
        "results/runs/{agent}/{suite}/{case}/{sample}/{attempt}/prompt.log",
    run:
        steps.prompt(PLAN, wildcards, input, output)
