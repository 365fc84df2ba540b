"""Oracle: a cube of water (SPH) falls into an empty square tank and settles to its level."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=2400 // FPS, gravity=(0.0, 0.0, -9.81)),
    sph_options=gs.options.SPHOptions(
        lower_bound=(-0.15, -0.15, 0.0), upper_bound=(0.15, 0.15, 0.7), particle_size=0.02
    ),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
water = scene.add_entity(
    gs.morphs.Box(size=(0.2, 0.2, 0.2), pos=(0.0, 0.0, 0.45)),
    material=gs.materials.SPH.Liquid(rho=1000.0, mu=0.005),
    surface=gs.surfaces.Default(color=(0.2, 0.45, 0.9)),
)
cam = scene.add_camera(res=RES, pos=(1.2, -1.2, 0.7), lookat=(0.0, 0.0, 0.25), fov=35, GUI=False)
scene.build()
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
