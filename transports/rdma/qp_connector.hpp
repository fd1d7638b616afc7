// The seam between an endpoint and a connection manager (rdma_cm): the manager owns the device
// context and the connection; the endpoint builds its PD, memory and CQs on that context and
// asks the manager for its queue pair, which the manager then connects.
#pragma once

#include <infiniband/verbs.h>

#include <string>

#include <nlohmann/json.hpp>

namespace gpubench::transports::rdma {

class qp_connector {
 public:
  virtual ~qp_connector() = default;

  // The device the manager reached the peer through; owned by the manager, valid until it is
  // destroyed (after the endpoint's resources).
  virtual ibv_context* context() const = 0;
  virtual int port() const = 0;

  // Creates the RC queue pair on the connection (rdma_create_qp: it leaves the QP in INIT);
  // nullptr with errno set on failure, like ibv_create_qp.
  virtual ibv_qp* create_qp(ibv_pd* pd, ibv_qp_init_attr& init) = 0;
  // Destroys the queue pair made by create_qp (rdma_destroy_qp, never ibv_destroy_qp).
  virtual void destroy_qp() noexcept = 0;

  // Connects (active side) or accepts (passive side) and waits until the connection is
  // established, bounded by the I/O timeout. Receives must already be posted.
  virtual void establish() = 0;

  // "connection": "rdma_cm", the addresses and the port that rdma_cm used.
  virtual nlohmann::json describe() const = 0;
  // The peer as errors name it ("198.18.0.2:41000").
  virtual std::string peer_name() const = 0;
};

// Destroys an endpoint's queue pair the way it was made: through its connector when it has
// one, else with ibv_destroy_qp.
struct qp_release {
  qp_connector* cm = nullptr;
  void operator()(ibv_qp* qp) const noexcept {
    if (cm)
      cm->destroy_qp();
    else if (qp)
      static_cast<void>(ibv_destroy_qp(qp));  // teardown errors cannot be acted on
  }
};

}  // namespace gpubench::transports::rdma
