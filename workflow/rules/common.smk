from snakemake.utils import validate

from simcodebench import rules as steps
from simcodebench.logs import show_logs
from simcodebench.plan import Plan

validate(config, "../schemas/config.schema.yaml")
show_logs()

PLAN = Plan.from_config(config)


wildcard_constraints:
    sample=r"\d+",
    attempt=r"\d+",
    agent=r"[A-Za-z0-9_.-]+",
    suite=r"[a-z0-9-]+(@[a-z0-9-]+)?",
    case=r"[A-Za-z0-9_.-]+",


localrules:
    prompt,
    generate,
    extract,
    finalize,
    aggregate,


def case_files(wildcards):
    """The case's folder contents (an oracle folder's files too), so an edited case reruns what depends on it."""
    return PLAN.case_files(wildcards.suite, wildcards.case)


def convergence_record(wildcards):
    """The attempt's convergence record, for suites that check convergence."""
    return PLAN.convergence_input(wildcards)


def previous_attempt(wildcards):
    """Attempt a > 0 reads attempt a-1's messages, reply and score."""
    attempt = int(wildcards.attempt)
    if attempt == 0:
        return {}
    sample = PLAN.sample_dir(
        wildcards.agent, wildcards.suite, wildcards.case, wildcards.sample
    )
    base = f"{sample}/{attempt - 1}"
    return {
        "previous_messages": f"{base}/messages.json",
        "previous_response": f"{base}/response.json",
        "previous_score": f"{base}/score.json",
    }


def mutant_calibration(wildcards):
    """Mutant agents place their slow mutant past the calibrated time gate."""
    if PLAN.agents[wildcards.agent].backend == "mutant":
        return {
            "calibration": f"results/calibration/{wildcards.suite}/{wildcards.case}.json"
        }
    return {}


def endpoint_resources():
    """One unit of the agent's endpoint resource (e.g. llm_openai) per call, so a profile can cap them."""
    names = sorted({a.endpoint for a in PLAN.agents.values()})
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


def execution_group(wildcards):
    """Short single-rank CPU runs of every case share the group ``short`` (execute and score), so a cluster
    profile's ``group-components`` batches many samples into one job; other runs go alone.
    """
    return "short" if PLAN.grouped(wildcards.suite, wildcards.case) else None


def group_slot():
    """One ``group_slot`` per member of the group ``short``: a profile's ``--resources group_slot=N`` (scoped
    local) lays out a group job as rounds of N members, so it asks for N members' cores and memory and the
    sum of its rounds' times.
    """
    return {"group_slot": lambda wc: 1 if PLAN.grouped(wc.suite, wc.case) else None}
