"""Second solution: a 10 cm steel ball dropped from 1 m onto rigid ground.

Written from the prompt apart from the oracle. It varies: two simulation steps per video frame (dt = 1/(2 FPS)) with
1/600 s substeps, the camera placed before the bodies and looking along +y from lower down, the ground added last
with a friction of its own (0.4, which the prompt leaves free) and a frame loop that steps a whole frame at a time.
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
cam = scene.add_camera(res=RES, pos=(0.0, -3.2, 0.6), lookat=(0.0, 0.0, 0.5), fov=35, GUI=False)
ball = scene.add_entity(
    morph=gs.morphs.Sphere(pos=(0.0, 0.0, 1.0), radius=0.1),
    material=gs.materials.Rigid(rho=7850.0),
    surface=gs.surfaces.Default(color=(0.55, 0.55, 0.6)),
)
scene.add_entity(morph=gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.4))
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
