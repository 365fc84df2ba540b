"""Second solution: two equal steel balls in weightlessness, one at 1 m/s striking the other head on.

Written from the prompt apart from the oracle. It varies: the balls' friction (0.5 each, left free: the impact is
head on), the struck ball created first, the launch set on the translational dofs only, two simulation steps per
video frame (dt = 1/(2 FPS)) with 1/600 s substeps, and a camera straight from the side.
"""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(600 * DT)), gravity=(0.0, 0.0, 0.0)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())  # the backdrop, 0.9 m below the balls
target = scene.add_entity(
    gs.morphs.Sphere(pos=(0.3, 0.0, 1.0), radius=0.1),
    material=gs.materials.Rigid(rho=7850.0, friction=0.5),
    surface=gs.surfaces.Default(color=(0.25, 0.35, 0.85)),
)
ball = scene.add_entity(
    gs.morphs.Sphere(pos=(-0.5, 0.0, 1.0), radius=0.1),
    material=gs.materials.Rigid(rho=7850.0, friction=0.5),
    surface=gs.surfaces.Default(color=(0.85, 0.25, 0.2)),
)
cam = scene.add_camera(res=RES, pos=(0.2, -3.4, 1.1), lookat=(0.2, 0.0, 0.9), fov=45, GUI=False)
scene.build()

ball.set_dofs_velocity([1.0, 0.0, 0.0], dofs_idx_local=[0, 1, 2])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
