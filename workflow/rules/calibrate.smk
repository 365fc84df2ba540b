rule calibration:
    input:
        case_files,
        ref_json=LAYOUT.reference("{suite}", "{case}", "json"),
        ref_h5=LAYOUT.reference("{suite}", "{case}", "h5"),
    output:
        LAYOUT.calibration("{suite}", "{case}"),
    log:
        LAYOUT.case_log("calibration", "{suite}", "{case}"),
    resources:
        **execution_resources(scale=6),
    run:
        calibrate.run(PLAN, wildcards, input, output, resources, log)


rule calibrate:
    input:
        PLAN.calibration_targets(),
