// The in-process message link the RDMA loopback uses: order, bounded waits, close.
#include <gtest/gtest.h>

#include <thread>

#include "transports/rdma/message_link.hpp"

namespace rdma = gpubench::transports::rdma;
using namespace std::chrono_literals;

TEST(RdmaLocalLink, DeliversInOrderBothWays) {
  auto [a, b] = rdma::make_local_link_pair();
  const std::vector<std::byte> one{std::byte{1}}, two{std::byte{2}, std::byte{2}};
  a->send(one);
  a->send(two);
  b->send(two);
  EXPECT_EQ(b->receive(100ms), one);
  EXPECT_EQ(b->try_receive(), two);
  EXPECT_FALSE(b->try_receive());
  EXPECT_EQ(a->receive(100ms), two);
}

TEST(RdmaLocalLink, ReceiveTimesOutWithContext) {
  auto [a, b] = rdma::make_local_link_pair();
  try {
    a->receive(10ms);
    FAIL() << "no timeout";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no message within 10 ms"), std::string::npos);
  }
}

TEST(RdmaLocalLink, CloseWakesTheOtherSide) {
  auto [a, b] = rdma::make_local_link_pair();
  std::thread closer([&] {
    std::this_thread::sleep_for(20ms);
    b->close();
  });
  EXPECT_THROW(a->receive(5000ms), std::runtime_error);
  closer.join();
  EXPECT_THROW(a->send(std::vector<std::byte>{std::byte{0}}), std::runtime_error);
  EXPECT_THROW(a->try_receive(), std::runtime_error);
}
