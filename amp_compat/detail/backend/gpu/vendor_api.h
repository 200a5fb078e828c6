// Shared GPU implementation (backend.h, "The shared GPU implementation"): what
// the files of gpu/ require of the vendor layer, a GPU backend's api.h
// (cuda/api.h, hip/api.h), which that backend's files include before them.
// This file only checks that one was included; the names are the contract.
//
// Namespace Concurrency::detail::gpu_api:
//   names            runtime_name ("CUDA": messages, descriptions), short_name
//                    ("cuda": names_backend), path_prefix (L"cuda": paths)
//   Kokkos           kokkos_space (the execution space type),
//                    kokkos_instance_device(), kokkos_instance_stream() (its
//                    default instance's device and stream)
//   errors           error_t, success, error_out_of_memory,
//                    error_peer_access_already_enabled, get_last_error() (also
//                    clears a non-sticky error), error_name(e), error_string(e)
//   streams, events  stream_t, event_t, default_stream (the default view's
//                    stream on Kokkos' device, ordered with Kokkos' default
//                    instance), stream_create_non_blocking, stream_destroy,
//                    stream_synchronize, stream_wait_event, event_create_no_timing,
//                    event_destroy, event_record, event_synchronize
//   devices          device_prop_t (.name, .totalGlobalMem, .pciBusID),
//                    get_device, set_device, get_device_count,
//                    get_device_properties, device_synchronize,
//                    device_can_access_peer, device_enable_peer_access,
//                    max_grid_yz (gridDim.y/z limit the launcher keeps to)
//   memory           malloc, free, memset, memset_async, malloc_async, free_async,
//                    host_alloc_mapped (page-locked, mapped, portable),
//                    host_get_device_pointer, memcpy_kind with host_to_device,
//                    device_to_host, device_to_device, memcpy, memcpy_async
//                    (returns once a pageable source may change),
//                    memcpy_peer_async, memcpy_to_symbol
//   call_name::      the runtime calls as error messages name them
//                    (set_device ... device_enable_peer_access)
//   end_thread()     device pass: ends the calling thread (direct3d_abort)
// Every call returns error_t and makes one runtime call, nothing more.
// Macros: AMP_GPU_API (defined: the layer is there) and
// AMP_GPU_LAUNCH_BOUNDS(B) (a kernel's launch-bounds attribute from B::threads
// and, where the vendor's attribute takes it, B::min_blocks).
#pragma once
#ifndef AMP_GPU_API
#error "backend/gpu/ is included by a GPU backend's own files (cuda/, hip/), after its api.h"
#endif
