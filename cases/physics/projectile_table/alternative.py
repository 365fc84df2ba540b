"""Second solution: a steel ball thrown horizontally at 2 m/s from 1 m up: it lands 0.88 m on, after 0.44 s.

Written from the prompt apart from the oracle. It varies: the launch set on the translational dofs only, the
ground's friction (0.6, left free) and the ball's default friction, three simulation steps per video frame (dt =
1/(3 FPS)) with 1/540 s substeps, the ball created before the ground, and a camera from the front, lower.
"""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 3
DT = 1.0 / (FPS * STEPS_PER_FRAME)

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(540 * DT)), gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
ball = scene.add_entity(
    gs.morphs.Sphere(pos=(-0.5, 0.0, 1.0), radius=0.05),
    material=gs.materials.Rigid(rho=7850.0),
    surface=gs.surfaces.Default(color=(0.6, 0.6, 0.65)),
)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.6))
cam = scene.add_camera(res=RES, pos=(0.3, -3.2, 0.4), lookat=(0.3, 0.0, 0.5), fov=45, GUI=False)
scene.build()

ball.set_dofs_velocity([2.0, 0.0, 0.0], dofs_idx_local=[0, 1, 2])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
