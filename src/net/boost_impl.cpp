// The one translation unit that compiles Boost.Asio and Boost.Beast (separate compilation):
// every other file sees only their declarations, which keeps builds fast on small machines.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
