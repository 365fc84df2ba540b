"""Second solution: a rubber ball dropped from 0.5 m onto the Moon's ground.

Written from the prompt apart from the oracle. It varies: the Moon's gravity given to the scene's `SimOptions` as
the prompt's 1.62 m/s^2, three simulation steps per video frame (dt = 1/(3 FPS)) with 1/480 s substeps, the ground's
friction (0.6, left free) set on the plane, which is added before the camera and the ball, and a camera from the
front, slightly above.
"""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 3
DT = 1.0 / (FPS * STEPS_PER_FRAME)

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(480 * DT)), gravity=(0.0, 0.0, -1.62)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.6))
cam = scene.add_camera(res=RES, pos=(0.0, -2.4, 0.9), lookat=(0.0, 0.0, 0.3), fov=38, GUI=False)
ball = scene.add_entity(
    gs.morphs.Sphere(radius=0.1, pos=(0.0, 0.0, 0.5)),
    material=gs.materials.Rigid(rho=1100.0, friction=0.9),
    surface=gs.surfaces.Default(color=(0.9, 0.35, 0.1)),
)
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
