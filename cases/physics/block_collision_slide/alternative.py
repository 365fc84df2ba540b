"""Second solution: a wooden block sliding at 2 m/s strikes an equal resting block; both slide on and stop.

Written from the prompt apart from the oracle. It varies: the resting block created first, two material objects
instead of one, the striker's launch set on its translational dofs only (`dofs_idx_local`), the floor's and the
blocks' friction both 0.3 (Genesis takes the larger of the pair's), two simulation steps per video frame (dt = 1/(2
FPS)) with 1/600 s substeps, and a camera from higher up.
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
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.3))
target = scene.add_entity(
    gs.morphs.Box(pos=(0.0, 0.0, 0.1), size=(0.2, 0.2, 0.2)),
    material=gs.materials.Rigid(rho=500.0, friction=0.3),
    surface=gs.surfaces.Default(color=(0.25, 0.45, 0.85)),
)
striker = scene.add_entity(
    gs.morphs.Box(pos=(-0.6, 0.0, 0.1), size=(0.2, 0.2, 0.2)),
    material=gs.materials.Rigid(rho=500.0, friction=0.3),
    surface=gs.surfaces.Default(color=(0.85, 0.3, 0.2)),
)
cam = scene.add_camera(res=RES, pos=(-0.1, -2.4, 1.5), lookat=(-0.1, 0.0, 0.1), fov=42, GUI=False)
scene.build()

striker.set_dofs_velocity([2.0, 0.0, 0.0], dofs_idx_local=[0, 1, 2])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
