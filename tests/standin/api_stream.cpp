// The stand-in's streams and events: a worker thread per stream; an event completes when its
// stream reaches it, and its time is the real time it did.
#include <chrono>
#include <memory>
#include <string>

#include "runtime.hpp"

using gpubench::tests::standin::completion;
using gpubench::tests::standin::installed_runtime;
using gpubench::tests::standin::op_kind;
using gpubench::tests::standin::runtime;
using gpubench::tests::standin::stream_worker;

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (flags != cudaStreamNonBlocking)
    return rt->fail(cudaErrorNotSupported,
                    "cudaStreamCreateWithFlags(" + std::to_string(flags) +
                        "): only non-blocking streams are implemented by the stand-in (a "
                        "blocking stream would synchronise with the legacy default stream)");
  const int d = rt->current_device();
  if (const cudaError_t ctx = rt->open_context(d); ctx != cudaSuccess) return ctx;
  *stream = rt->create_stream(d);
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!stream || !rt->destroy_stream(stream))
    return rt->fail(cudaErrorInvalidResourceHandle, "cudaStreamDestroy of no stream");
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  stream_worker* w = rt->worker_of(stream);
  if (!w) return rt->fail(cudaErrorInvalidResourceHandle, "cudaStreamSynchronize of no stream");
  w->synchronize();
  if (rt->device_failed(w->device()))
    return rt->fail(rt->device_error(w->device()), "cudaStreamSynchronize", true);
  return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  stream_worker* w = rt->worker_of(stream);
  if (!w) return rt->fail(cudaErrorInvalidResourceHandle, "cudaStreamQuery of no stream");
  if (rt->device_failed(w->device()))
    return rt->fail(rt->device_error(w->device()), "cudaStreamQuery", true);
  return w->idle() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  stream_worker* w = rt->worker_of(stream);
  if (!w || !rt->valid_event(event))
    return rt->fail(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent");
  if (flags != 0) return rt->fail(cudaErrorInvalidValue, "cudaStreamWaitEvent: flags");
  std::shared_ptr<completion> c;
  {
    const std::lock_guard lock(rt->event_mutex());
    c = event->last;
  }
  // An event never recorded is complete: nothing to wait for (CUDA's rule). A stream may wait
  // on another device's event.
  if (c) w->push({op_kind::marker, 0, [c] { c->wait(); }});
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (flags & ~static_cast<unsigned>(cudaEventBlockingSync | cudaEventDisableTiming))
    return rt->fail(cudaErrorNotSupported, "cudaEventCreateWithFlags(" + std::to_string(flags) +
                                               "): flag not implemented by the stand-in");
  const int d = rt->current_device();
  if (const cudaError_t ctx = rt->open_context(d); ctx != cudaSuccess) return ctx;
  *event = rt->create_event(d, (flags & cudaEventDisableTiming) == 0);
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->destroy_event(event))
    return rt->fail(cudaErrorInvalidResourceHandle, "cudaEventDestroy of no event");
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  stream_worker* w = rt->worker_of(stream);
  if (!w || !rt->valid_event(event))
    return rt->fail(cudaErrorInvalidResourceHandle, "cudaEventRecord");
  if (event->device != w->device())
    return rt->fail(cudaErrorInvalidResourceHandle,
                    "cudaEventRecord of an event of GPU " + std::to_string(event->device) +
                        " on a stream of GPU " + std::to_string(w->device()));
  auto c = std::make_shared<completion>();
  {
    const std::lock_guard lock(rt->event_mutex());
    event->last = c;
  }
  w->push({op_kind::marker, 0, [rt, c, w] {
             const auto counts = w->counts();
             rt->event_reached(w, w->device(), counts);
             c->finish(counts);
           }});
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->valid_event(event))
    return rt->fail(cudaErrorInvalidResourceHandle, "cudaEventSynchronize");
  std::shared_ptr<completion> c;
  {
    const std::lock_guard lock(rt->event_mutex());
    c = event->last;
  }
  if (c) c->wait();
  return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->valid_event(event)) return rt->fail(cudaErrorInvalidResourceHandle, "cudaEventQuery");
  const std::lock_guard lock(rt->event_mutex());
  return !event->last || event->last->done() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  if (!rt->valid_event(start) || !rt->valid_event(end))
    return rt->fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime of no event");
  if (start->device != end->device)
    return rt->fail(cudaErrorInvalidResourceHandle,
                    "cudaEventElapsedTime between events of different GPUs");
  if (!start->timing || !end->timing)
    return rt->fail(cudaErrorInvalidResourceHandle,
                    "cudaEventElapsedTime of an event created with cudaEventDisableTiming");
  const std::lock_guard lock(rt->event_mutex());
  if (!start->last || !end->last)
    return rt->fail(cudaErrorInvalidResourceHandle,
                    "cudaEventElapsedTime of an event never recorded");
  if (!start->last->done() || !end->last->done())
    return rt->fail(cudaErrorNotReady,
                    "cudaEventElapsedTime before the stream reached both events (synchronise "
                    "first)");
  *ms = std::chrono::duration<float, std::milli>(end->last->at() - start->last->at()).count();
  return cudaSuccess;
}

cudaError_t cudaStreamGetDevice(cudaStream_t stream, int* device) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  stream_worker* w = rt->worker_of(stream);
  if (!w) return rt->fail(cudaErrorInvalidResourceHandle, "cudaStreamGetDevice of no stream");
  *device = w->device();
  return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  runtime* rt = installed_runtime();
  if (!rt) return cudaErrorNoDevice;
  stream_worker* w = rt->worker_of(stream);
  if (!w) return rt->fail(cudaErrorInvalidResourceHandle, "cudaLaunchHostFunc on no stream");
  if (!fn) return rt->fail(cudaErrorInvalidValue, "cudaLaunchHostFunc of no function");
  if (rt->device_failed(w->device()))
    return rt->fail(rt->device_error(w->device()), "cudaLaunchHostFunc", true);
  w->push({op_kind::marker, 0, [fn, user_data] { fn(user_data); }});
  return cudaSuccess;
}
