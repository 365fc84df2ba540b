"""Oracle: a row of five dominoes; the first, released leaning 20 degrees, knocks the others down one by one."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0
THICK, WIDE, TALL, SPACING = 0.02, 0.08, 0.2, 0.1

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane())
wood = gs.materials.Rigid(rho=700.0, friction=0.6)
for i in range(5):
    # the first leans 20 degrees towards +x, its lower front edge on the ground: centre at 0.0974 m
    pose = {"pos": (0.0, 0.0, 0.0974), "euler": (0.0, 20.0, 0.0)} if i == 0 else {"pos": (i * SPACING, 0.0, TALL / 2)}
    scene.add_entity(
        gs.morphs.Box(size=(THICK, WIDE, TALL), **pose),
        material=wood,
        surface=gs.surfaces.Default(color=(0.9, 0.9, 0.85) if i else (0.8, 0.2, 0.2)),
    )
cam = scene.add_camera(res=RES, pos=(0.2, -1.2, 0.4), lookat=(0.2, 0.0, 0.08), fov=40, GUI=False)
scene.build()
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
