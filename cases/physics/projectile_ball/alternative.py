"""Second solution: a 5 cm ball launched at 4 m/s, 45 degrees up, from just above the ground: a parabola.

Written from the prompt apart from the oracle. It varies: the launch velocity computed from speed and angle and set
on the translational dofs only, the ground's and the ball's friction (0.7 and 0.3, left free), two simulation steps
per video frame (dt = 1/(2 FPS)) with 1/600 s substeps, the camera added first and placed further back.
"""

import math

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)
SPEED, ANGLE = 4.0, math.radians(45.0)

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(600 * DT)), gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
cam = scene.add_camera(res=RES, pos=(0.2, -4.5, 0.9), lookat=(0.2, 0.0, 0.35), fov=42, GUI=False)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.7))
ball = scene.add_entity(
    gs.morphs.Sphere(pos=(-0.8, 0.0, 0.06), radius=0.05),
    material=gs.materials.Rigid(rho=1000.0, friction=0.3),
    surface=gs.surfaces.Default(color=(0.95, 0.55, 0.1)),
)
scene.build()

ball.set_dofs_velocity([SPEED * math.cos(ANGLE), 0.0, SPEED * math.sin(ANGLE)], dofs_idx_local=[0, 1, 2])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
