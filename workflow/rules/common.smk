from snakemake.utils import validate

from simcodebench import rules as steps
from simcodebench.plan import Plan


validate(config, "../schemas/config.schema.yaml")

PLAN = Plan.from_config(config)


wildcard_constraints:
    sample=r"\d+",
    attempt=r"\d+",
    agent=r"[A-Za-z0-9_.-]+",
    suite=r"[a-z0-9-]+",
    case=r"[A-Za-z0-9_.-]+",


localrules:
    prompt,
    generate,
    extract,
    finalize,
    aggregate,


def case_files(wildcards):
    """The case's folder contents, so an edited case reruns what depends on it."""
    folder = PLAN.case(wildcards.suite, wildcards.case).folder
    return sorted(str(p) for p in folder.iterdir() if p.is_file())


def previous_attempt(wildcards):
    """Attempt a > 0 reads attempt a-1's messages, reply and score."""
    attempt = int(wildcards.attempt)
    if attempt == 0:
        return {}
    sample = PLAN.sample_dir(wildcards.agent, wildcards.suite, wildcards.case, wildcards.sample)
    base = f"{sample}/{attempt - 1}"
    return {
        "previous_messages": f"{base}/messages.json",
        "previous_response": f"{base}/response.json",
        "previous_score": f"{base}/score.json",
    }


def mutant_calibration(wildcards):
    """Mutant agents place their slow mutant past the calibrated time gate."""
    if PLAN.agents[wildcards.agent].backend == "mutant":
        return {"calibration": f"results/calibration/{wildcards.suite}/{wildcards.case}.json"}
    return {}


def endpoint_resources():
    """One unit of the agent's endpoint resource (e.g. llm_openai) per call, so a profile can cap them."""
    names = sorted({a.endpoint for a in PLAN.agents.values()})
    return {
        name: (lambda wc, name=name: int(PLAN.agents[wc.agent].endpoint == name))
        for name in names
    }


def execution_resources(scale=1):
    """Cluster resources of an execution of the case (``scale`` for several runs in one job)."""
    return {
        "runtime": lambda wc: scale * PLAN.resources(wc.suite, wc.case)["runtime"],
        "mem_mb": lambda wc: PLAN.resources(wc.suite, wc.case)["mem_mb"],
        "cpus_per_task": lambda wc: PLAN.resources(wc.suite, wc.case)["cpus_per_task"],
    }
