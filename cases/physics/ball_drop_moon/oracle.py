"""Oracle: a rubber ball dropped from 0.5 m on the Moon (g = 1.62 m/s^2): a slow fall onto the regolith."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -1.62)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
ball = scene.add_entity(
    gs.morphs.Sphere(radius=0.1, pos=(0.0, 0.0, 0.5)),
    material=gs.materials.Rigid(rho=1100.0, friction=0.8),
    surface=gs.surfaces.Default(color=(0.8, 0.2, 0.2)),
)
cam = scene.add_camera(res=RES, pos=(2.0, -2.0, 0.8), lookat=(0.0, 0.0, 0.3), fov=40, GUI=False)
scene.build()
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
