"""Second solution: a solid wooden cylinder, axis along y, rolling without slipping down a 20 degree plank.

Written from the prompt apart from the oracle. It varies: the plank's tilt given as a quaternion, the cylinder's
axis turned to y by a quaternion too, its start worked out with a rotation matrix (0.9 m up the slope, one radius
along the face's normal), the ground's friction (0.8, left free), two simulation steps per video frame (dt = 1/(2
FPS)) with 1/600 s substeps, and a camera from the front, lower.
"""

import math

import genesis as gs
import numpy as np

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)
TILT = math.radians(20.0)
PLANK_CENTRE = np.array([0.0, 0.0, 0.45])
PLANK_SIZE = (2.4, 0.6, 0.05)
RADIUS, LENGTH = 0.1, 0.3

rotation = np.array([[math.cos(TILT), 0.0, math.sin(TILT)], [0.0, 1.0, 0.0], [-math.sin(TILT), 0.0, math.cos(TILT)]])
start = PLANK_CENTRE + rotation @ np.array([-0.9, 0.0, PLANK_SIZE[2] / 2 + RADIUS])

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(600 * DT)), gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
cam = scene.add_camera(res=RES, pos=(0.4, -3.8, 0.6), lookat=(0.4, 0.0, 0.35), fov=45, GUI=False)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.8))
scene.add_entity(
    gs.morphs.Box(
        size=PLANK_SIZE, pos=tuple(PLANK_CENTRE), quat=(math.cos(TILT / 2), 0.0, math.sin(TILT / 2), 0.0), fixed=True
    ),
    material=gs.materials.Rigid(friction=0.8),
    surface=gs.surfaces.Default(color=(0.45, 0.45, 0.5)),
)
# a cylinder's axis is its z; a quarter turn about x lays it along y
log = scene.add_entity(
    gs.morphs.Cylinder(radius=RADIUS, height=LENGTH, pos=tuple(start), quat=(math.sqrt(0.5), math.sqrt(0.5), 0.0, 0.0)),
    material=gs.materials.Rigid(rho=600.0, friction=0.8),
    surface=gs.surfaces.Default(color=(0.65, 0.5, 0.3)),
)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
