"""Second solution: a 20 cm cube of water (SPH) dropped into a 30 cm square tank spreads over its floor.

Written from the prompt apart from the oracle. It varies: a particle size of 2.2 cm with substeps of about 1/2000 s
(the state equation's sound speed, about 19 m/s, crosses about a fifth of the 4.4 cm support radius per substep),
two simulation steps per video frame (dt = 1/(2 FPS)), the camera added first and the water before the ground.
"""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
STEPS_PER_FRAME = 2
DT = 1.0 / (FPS * STEPS_PER_FRAME)

gs.init(backend=gs.cpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=DT, substeps=max(1, round(2000 * DT)), gravity=(0.0, 0.0, -9.81)),
    sph_options=gs.options.SPHOptions(
        lower_bound=(-0.15, -0.15, 0.0), upper_bound=(0.15, 0.15, 0.7), particle_size=0.022
    ),
    show_viewer=False,
)
cam = scene.add_camera(res=RES, pos=(0.0, -1.7, 0.6), lookat=(0.0, 0.0, 0.25), fov=40, GUI=False)
water = scene.add_entity(
    gs.morphs.Box(pos=(0.0, 0.0, 0.45), size=(0.2, 0.2, 0.2)),
    material=gs.materials.SPH.Liquid(rho=1000.0, mu=0.005),
    surface=gs.surfaces.Default(color=(0.15, 0.4, 0.95)),
)
scene.add_entity(gs.morphs.Plane())
scene.build()

cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _frame in range(int(SECONDS * FPS)):
    for _ in range(STEPS_PER_FRAME):
        scene.step()
cam.stop_recording()
