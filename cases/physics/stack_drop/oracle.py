"""Oracle: three equal wooden cubes dropped one above another fall, land on each other and settle as a stack."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
colours = [(0.8, 0.3, 0.2), (0.3, 0.7, 0.3), (0.2, 0.4, 0.8)]
for height, colour in zip((0.5, 0.8, 1.1), colours, strict=True):
    scene.add_entity(
        gs.morphs.Box(size=(0.2, 0.2, 0.2), pos=(0.0, 0.0, height)),
        material=gs.materials.Rigid(rho=600.0, friction=0.6),
        surface=gs.surfaces.Default(color=colour),
    )
cam = scene.add_camera(res=RES, pos=(2.5, -2.5, 1.2), lookat=(0.0, 0.0, 0.5), fov=40, GUI=False)
scene.build()
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
