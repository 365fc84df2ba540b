from snakemake.utils import validate
from snakemake_interface_executor_plugins.settings import ExecMode

from simcodebench.core.layout import MANIFEST
from simcodebench.core.logs import show_logs
from simcodebench.pipeline import aggregate, ask, calibrate, evaluate, reference
from simcodebench.pipeline.plan import Plan
from simcodebench.pipeline.stale import remove_stale_records

validate(config, "../schemas/config.schema.yaml")
show_logs()

PLAN = Plan.from_config(config)
LAYOUT = PLAN.layout
if workflow.exec_mode == ExecMode.DEFAULT:  # the main process plans; a job's own process never removes
    remove_stale_records(PLAN)
# the wildcards of one attempt, for the layout's patterns
ATTEMPT = ("{agent}", "{suite}", "{case}", "{sample}", "{attempt}")


wildcard_constraints:
    sample=r"\d+",
    attempt=r"\d+",
    agent=r"[A-Za-z0-9_.-]+",
    suite=r"[a-z0-9-]+(@[a-z0-9-]+)?",
    case=r"[A-Za-z0-9_.-]+",
    batch=r"[0-9a-f]{12}",


localrules:
    ask,
    aggregate,


def case_files(wildcards):
    """The case's folder contents (an oracle folder's files too), so an edited case reruns what depends on it."""
    return PLAN.case_files(wildcards.suite, wildcards.case)


def ask_inputs(wildcards):
    """What an ``ask`` job reads, from one input function (Snakemake pays per function and job): the case's
    files, so an edited case asks again; for attempt a > 0 the batch record of the ``evaluate`` job that scored
    (case, sample, a-1), whose messages, reply and score.json (a side output of that job) it reads; for a mutant
    agent the case's calibration (the slow mutant is placed past the calibrated time gate).
    """
    named = {"case": PLAN.case_files(wildcards.suite, wildcards.case)}
    attempt = int(wildcards.attempt)
    if attempt > 0:
        batch = PLAN.batch_of(
            wildcards.agent,
            wildcards.suite,
            wildcards.case,
            wildcards.sample,
            attempt - 1,
        )
        named["previous_batch"] = LAYOUT.batch_record(
            wildcards.suite, attempt - 1, batch
        )
    if PLAN.agents[wildcards.agent].backend == "mutant":
        named["calibration"] = LAYOUT.calibration(wildcards.suite, wildcards.case)
    return named


def batch_inputs(wildcards):
    """Every member's solution manifest, and its cases' references and calibrations."""
    return PLAN.batch_inputs(wildcards.suite, wildcards.attempt, wildcards.batch)


def endpoint_resources():
    """One unit of the agent's endpoint resource (e.g. llm_openai) per call, so a profile can cap them (a
    constant where every agent shares one endpoint: Snakemake pays per function and job).
    """
    names = sorted({a.endpoint for a in PLAN.agents.values()})
    if len(names) == 1:
        return {names[0]: 1}
    return {
        name: (lambda wc, name=name: int(PLAN.agents[wc.agent].endpoint == name))
        for name in names
    }


def execution_resources(scale=1):
    """Cluster resources of an execution of the case (``scale`` for several runs in one job): time, memory,
    cores, MPI ranks with their launcher (``mpi``, only with several ranks) and GPUs (only when asked).
    """
    return {
        "runtime": lambda wc: scale * PLAN.resources(wc.suite, wc.case)["runtime"],
        **{
            name: (lambda wc, name=name: PLAN.resources(wc.suite, wc.case)[name])
            for name in ("mem_mb", "cpus_per_task", "tasks", "mpi", "gpu")
        },
    }


def batch_resources():
    """Cluster resources of one ``evaluate`` job (see ``Plan.batch_resources``): its members' times added, the
    largest memory, the cores, MPI ranks with their launcher and GPUs that its members share.
    """
    return {
        name: (
            lambda wc, name=name: PLAN.batch_resources(wc.suite, wc.attempt, wc.batch)[
                name
            ]
        )
        for name in ("runtime", "mem_mb", "cpus_per_task", "tasks", "mpi", "gpu")
    }
