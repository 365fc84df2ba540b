"""Second solution: an ice-hockey puck (rubber cylinder r 3.8 cm, h 2.5 cm) launched at 0.9 m/s on ice, mu 0.1.

Written from the prompt apart from the oracle. It varies: the puck starts at the origin (the prompt gives no place),
the coefficient carried by the ice (0.1) with the puck's own friction at 0.05 (Genesis takes the larger of the
pair's, so the pair's is the stated 0.1), the launch set on its translational dofs only, two simulation steps per
video frame (dt = 1/(2 FPS)) with 1/600 s substeps, and a camera from above at another angle.
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
ice = scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.1))
puck = scene.add_entity(
    gs.morphs.Cylinder(pos=(0.0, 0.0, 0.0125), radius=0.038, height=0.025),
    material=gs.materials.Rigid(rho=1450.0, friction=0.05),
    surface=gs.surfaces.Default(color=(0.05, 0.05, 0.05)),
)
cam = scene.add_camera(res=RES, pos=(0.2, -0.8, 0.8), lookat=(0.2, 0.0, 0.0), fov=50, GUI=False)
scene.build()

puck.set_dofs_velocity([0.9, 0.0, 0.0], dofs_idx_local=[0, 1, 2])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
