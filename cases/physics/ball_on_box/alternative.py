"""Second solution: a steel ball dropped from 1 m onto a wooden cube resting on the ground.

Written from the prompt apart from the oracle. It varies: the ball is created before the cube, the cube's and the
ground's friction (0.5 and 0.7, left free) differ from the oracle's, two simulation steps per video frame (dt = 1/(2
FPS)) with 1/600 s substeps, the rigid solver's collision between the two bodies left to its defaults, and a camera
from the -x side.
"""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(600 * DT)), gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.7))
ball = scene.add_entity(
    gs.morphs.Sphere(radius=0.05, pos=(0.0, 0.0, 1.0)),
    material=gs.materials.Rigid(rho=7850.0, friction=0.4),
    surface=gs.surfaces.Default(color=(0.65, 0.65, 0.7)),
)
cube = scene.add_entity(
    gs.morphs.Box(pos=(0.0, 0.0, 0.15), size=(0.3, 0.3, 0.3)),
    material=gs.materials.Rigid(rho=600.0, friction=0.5),
    surface=gs.surfaces.Default(color=(0.7, 0.5, 0.3)),
)
cam = scene.add_camera(res=RES, pos=(-2.6, -1.0, 0.9), lookat=(0.0, 0.0, 0.45), fov=38, GUI=False)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
