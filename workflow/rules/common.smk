from snakemake.utils import validate
from snakemake_interface_executor_plugins.settings import ExecMode

from simcodebench.agents import run_stop
from simcodebench.agents.backends import local_server
from simcodebench.core.logs import show_logs
from simcodebench.execution import slots
from simcodebench.pipeline import aggregate, ask, calibrate, evaluate, reference
from simcodebench.pipeline.ask import endpoint_share
from simcodebench.pipeline.plan import Plan
from simcodebench.pipeline.stale import remove_stale_records

validate(config, "../schemas/config.schema.yaml")
show_logs()
run_stop.mark_run_start()  # an agent's max_minutes count from here (or from simcodebench eval's start)

PLAN = Plan.from_config(config)
LAYOUT = PLAN.layout
if (
    workflow.exec_mode == ExecMode.DEFAULT
):  # the main process plans; a job's own process never removes
    remove_stale_records(PLAN)


onsuccess:
    local_server.stop_servers()


onerror:
    local_server.stop_servers()


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
    """What an ``ask`` job reads (``Plan.ask_inputs``), from one input function (Snakemake pays per function and
    job): its members' case files, attempt a-1's ``evaluate`` records, a mutant's calibrations.
    """
    return PLAN.ask_inputs(wildcards.suite, wildcards.attempt, wildcards.batch)


def released_reference_files(wildcards):
    """The files of the config's ``references`` folder the case's reference is read from (none: it is made)."""
    return PLAN.released_files(wildcards.suite, wildcards.case)


def batch_inputs(wildcards):
    """The batch's ``ask`` record, and its cases' references and calibrations."""
    return PLAN.batch_inputs(wildcards.suite, wildcards.attempt, wildcards.batch)


def batch_threads(wildcards):
    """Cores of one ``evaluate`` job (``Plan.batch_threads``): none where jobs share the run's cores as slots
    (``shared_cores``), else those its members share, one after another (a cluster job).
    """
    return PLAN.batch_threads(
        wildcards.suite, wildcards.attempt, wildcards.batch, shared_cores()
    )


def shared_cores():
    """Whether jobs run as threads of this process (the local profile): then the run's cores are slots that
    evaluate members, references and calibrations share (``execution/slots.py``), made here the first time.
    """
    settings = workflow.execution_settings
    shared = workflow.local_exec and not workflow.remote_exec
    shared = shared and settings is not None and settings.use_threads
    if shared:
        slots.share(workflow.cores)
    return shared


def endpoint_resources():
    """Per endpoint resource (e.g. llm_openai), the number of the ``ask`` job's members that call it: Snakemake
    lowers it to the cap of ``--resources llm_openai=N`` (absent: ``DEFAULT_ENDPOINT_CAP``), and the job asks
    that many members at a time (``pipeline/ask.py``)."""
    names = sorted({a.endpoint for a in PLAN.agents.values()})
    return {
        name: (
            lambda wc, name=name: endpoint_share(
                PLAN.ask_endpoints(wc.suite, wc.attempt, wc.batch).get(name, 0),
                name in workflow.global_resources,
            )
        )
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
