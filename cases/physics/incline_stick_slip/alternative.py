"""Second solution: a rubber and a PTFE block side by side on a 20 degree plank: the rubber sticks, the PTFE slides.

Written from the prompt apart from the oracle. It varies: the tilt given as quaternions and the starts worked out
with a rotation matrix (0.8 m up the slope, half the block's height along the face's normal, y = +/-0.2 m), the
plank's own friction (0.1: the pair's coefficient is the larger of the two bodies' in Genesis, so each block's
material carries its stated coefficient), the PTFE block created first, the ground's friction (0.5, left free), two
simulation steps per video frame (dt = 1/(2 FPS)) with 1/600 s substeps, and a camera further back.
"""

import math

import genesis as gs
import numpy as np

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)
TILT = math.radians(20.0)
PLANK_CENTRE = np.array([0.0, 0.0, 0.45])
PLANK_SIZE = (2.4, 0.8, 0.05)
BLOCK = (0.2, 0.2, 0.1)
QUAT = (math.cos(TILT / 2), 0.0, math.sin(TILT / 2), 0.0)

rotation = np.array([[math.cos(TILT), 0.0, math.sin(TILT)], [0.0, 1.0, 0.0], [-math.sin(TILT), 0.0, math.cos(TILT)]])


def start(y: float) -> tuple[float, float, float]:
    """A block's centre 0.8 m up the slope from the plank's centre, resting on the top face, at ``y``."""
    return tuple(PLANK_CENTRE + rotation @ np.array([-0.8, y, PLANK_SIZE[2] / 2 + BLOCK[2] / 2]))


gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(600 * DT)), gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.5))
scene.add_entity(
    gs.morphs.Box(size=PLANK_SIZE, pos=tuple(PLANK_CENTRE), quat=QUAT, fixed=True),
    material=gs.materials.Rigid(friction=0.1),
    surface=gs.surfaces.Default(color=(0.45, 0.45, 0.5)),
)
ptfe = scene.add_entity(
    gs.morphs.Box(size=BLOCK, pos=start(-0.2), quat=QUAT),
    material=gs.materials.Rigid(rho=2200.0, friction=0.1),
    surface=gs.surfaces.Default(color=(0.92, 0.92, 0.88)),
)
rubber = scene.add_entity(
    gs.morphs.Box(size=BLOCK, pos=start(0.2), quat=QUAT),
    material=gs.materials.Rigid(rho=1200.0, friction=0.7),
    surface=gs.surfaces.Default(color=(0.12, 0.12, 0.12)),
)
cam = scene.add_camera(res=RES, pos=(0.3, -4.0, 1.3), lookat=(0.3, 0.0, 0.45), fov=42, GUI=False)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
