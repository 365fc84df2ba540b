"""Second solution: a steel block (20 x 20 x 10 cm, large face down) sliding down a 30 degree plank, mu 0.2.

Written from the prompt apart from the oracle. It varies: the plank's and the block's tilt given as quaternions and
the block's start worked out with a rotation matrix (0.9 m up the slope, half its height along the face's normal),
the ground's friction (0.5, left free), two simulation steps per video frame (dt = 1/(2 FPS)) with 1/600 s substeps,
the camera added first and placed further back.
"""

import math

import genesis as gs
import numpy as np

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)
TILT = math.radians(30.0)
PLANK_CENTRE = np.array([0.0, 0.0, 0.6])
PLANK_SIZE = (2.4, 0.6, 0.05)
BLOCK = (0.2, 0.2, 0.1)
QUAT = (math.cos(TILT / 2), 0.0, math.sin(TILT / 2), 0.0)

rotation = np.array([[math.cos(TILT), 0.0, math.sin(TILT)], [0.0, 1.0, 0.0], [-math.sin(TILT), 0.0, math.cos(TILT)]])
start = PLANK_CENTRE + rotation @ np.array([-0.9, 0.0, PLANK_SIZE[2] / 2 + BLOCK[2] / 2])

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(600 * DT)), gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
cam = scene.add_camera(res=RES, pos=(0.3, -4.0, 1.2), lookat=(0.3, 0.0, 0.5), fov=42, GUI=False)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.5))
scene.add_entity(
    gs.morphs.Box(size=PLANK_SIZE, pos=tuple(PLANK_CENTRE), quat=QUAT, fixed=True),
    material=gs.materials.Rigid(friction=0.2),
    surface=gs.surfaces.Default(color=(0.45, 0.45, 0.5)),
)
block = scene.add_entity(
    gs.morphs.Box(size=BLOCK, pos=tuple(start), quat=QUAT),
    material=gs.materials.Rigid(rho=7850.0, friction=0.2),
    surface=gs.surfaces.Default(color=(0.35, 0.35, 0.75)),
)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
