// <amp_graphics.h>: concurrency::graphics textures, texture views, samplers and
// their copies, over the short vectors of <amp_short_vectors.h>. Direct3D
// interop (direct3d::make_texture, get_texture, make_sampler, get_sampler) is
// not provided: there is no Direct3D device (migration_guide.md).
#pragma once
#include "amp.h"
#include "amp_short_vectors.h"
#include "detail/graphics/texture_copy.h"
