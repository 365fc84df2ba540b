rule aggregate:
    input:
        PLAN.batch_targets(),
    output:
        csv=report(
            "results/summary/scores.csv",
            caption="../report/scores.rst",
            category="Scores",
        ),
        tables=report(
            "results/summary/summary.md",
            caption="../report/tables.rst",
            category="Scores",
        ),
        plot=report(
            "results/summary/failure_classes.png",
            caption="../report/failure_classes.rst",
            category="Failure classes",
        ),
        fields=report(
            directory("results/summary/fields"),
            patterns=["{name}.png"],
            caption="../report/fields.rst",
            category="Fields",
        ),
    log:
        "results/logs/aggregate.log",
    run:
        steps.aggregate(PLAN, input, output)
