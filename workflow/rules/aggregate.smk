rule aggregate:
    input:
        PLAN.batch_targets(),
    output:
        csv=report(
            LAYOUT.summary_file("scores.csv"),
            caption="../report/scores.rst",
            category="Scores",
        ),
        tables=report(
            LAYOUT.summary_file("summary.md"),
            caption="../report/tables.rst",
            category="Scores",
        ),
        plot=report(
            LAYOUT.summary_file("failure_classes.png"),
            caption="../report/failure_classes.rst",
            category="Failure classes",
        ),
        fields=report(
            directory(LAYOUT.summary_file("fields")),
            patterns=["{name}.png"],
            caption="../report/fields.rst",
            category="Fields",
        ),
        samples=report(
            directory(LAYOUT.sample_pages),
            patterns=["{name}.html"],
            caption="../report/samples.rst",
            category="Samples",
        ),
    log:
        LAYOUT.log("aggregate.log"),
    run:
        aggregate.run(PLAN, input, output)
