/* Input handling of `carom view` (see view_input.h). */
#include "view_input.h"

const char *const view_keys_help =
    "  left mouse button      drag the large sphere (it follows the pointer)\n"
    "  right button, wheel    orbit and zoom the camera (3D)\n"
    "  space                  pause / resume\n"
    "  n                      single step (1/60 of a time unit times the time scale)\n"
    "  r                      reset to the starting scene\n"
    "  - and + (or =)         slower / faster (time scale halved / doubled)\n"
    "  g                      gravity on / off\n"
    "  c                      colouring: by band, by speed, by species (when the scene\n"
    "                         has species), round again\n"
    "  o                      slow camera orbit on / off (3D)\n"
    "  d                      write the state now to the dump= file\n"
    "  Escape, q              quit\n";

static void drag_to_pointer(driver *d, const camera *cam, view_state *vs, int x, int y)
{
    double px = x * vs->pixel_ratio[0], py = y * vs->pixel_ratio[1], p[3];
    camera_pick(cam, px, py, vs->drag_anchor, p);
    driver_drag_to(d, p);
}

static void key_down(SDL_Keycode key, driver *d, camera *cam, view_state *vs, int *quit)
{
    switch (key) {
    case SDLK_ESCAPE:
    case SDLK_q:
        *quit = 1;
        break;
    case SDLK_SPACE:
        d->paused = !d->paused;
        break;
    case SDLK_n:
    case SDLK_PERIOD:
        vs->step_request = 1;
        break;
    case SDLK_r:
        if (driver_reset(d))
            vs->error = 1;
        break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        if (d->time_scale > 1e-6)
            d->time_scale *= 0.5;
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        if (d->time_scale < 1e6)
            d->time_scale *= 2.0;
        break;
    case SDLK_g:
        if (driver_set_gravity(d, !d->gravity_enabled))
            vs->error = 1;
        break;
    case SDLK_c:
        vs->colour = frame_next_colour(vs->colour, d->has_species);
        break;
    case SDLK_o:
        vs->auto_orbit = !vs->auto_orbit;
        break;
    case SDLK_d:
        vs->dump_request = 1;
        break;
    default:
        break;
    }
    (void)cam;
}

int view_input_handle(const SDL_Event *e, driver *d, camera *cam, view_state *vs)
{
    int quit = 0;
    switch (e->type) {
    case SDL_QUIT:
        quit = 1;
        break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_CLOSE)
            quit = 1;
        break;
    case SDL_KEYDOWN:
        key_down(e->key.keysym.sym, d, cam, vs, &quit);
        break;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_LEFT) {
            vs->dragging = 1;
            if (!driver_big_position(d, vs->drag_anchor))
                vs->dragging = 0;
            else
                drag_to_pointer(d, cam, vs, e->button.x, e->button.y);
        } else if (e->button.button == SDL_BUTTON_RIGHT) {
            vs->orbiting = 1;
        }
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT)
            vs->dragging = 0;
        else if (e->button.button == SDL_BUTTON_RIGHT)
            vs->orbiting = 0;
        break;
    case SDL_MOUSEMOTION:
        if (vs->dragging)
            drag_to_pointer(d, cam, vs, e->motion.x, e->motion.y);
        else if (vs->orbiting && cam->dim == 3)
            camera_orbit(cam, e->motion.xrel, e->motion.yrel);
        break;
    case SDL_MOUSEWHEEL:
        if (cam->dim == 3)
            camera_zoom(cam, e->wheel.y > 0 ? 0.9 : 1.0 / 0.9);
        break;
    default:
        break;
    }
    return quit;
}
