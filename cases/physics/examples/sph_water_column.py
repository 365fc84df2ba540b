# A column of water (SPH particles) collapses inside a box-shaped domain.
import genesis as gs

gs.init(backend=gs.cpu)
world = gs.Scene(
    sim_options=gs.options.SimOptions(dt=4e-3, substeps=10),
    sph_options=gs.options.SPHOptions(lower_bound=(-0.5, -0.5, 0.0), upper_bound=(0.5, 0.5, 1.0), particle_size=0.02),
    show_viewer=False,
)
world.add_entity(morph=gs.morphs.Plane())
water = world.add_entity(
    morph=gs.morphs.Box(pos=(-0.3, 0.0, 0.25), size=(0.2, 0.2, 0.4)),
    material=gs.materials.SPH.Liquid(rho=1000.0, mu=0.005),
    surface=gs.surfaces.Default(color=(0.2, 0.4, 0.9)),
)
world.build()
for _ in range(10):
    world.step()
print("particles:", water.get_particles_pos().shape)
