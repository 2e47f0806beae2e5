// A TCP forwarder for the benchmark (tests/bench/README.md): between a client and a database
// server on loopback, it holds every chunk it reads for a fixed time before passing it on, in
// each direction, so that a round trip takes twice that time more (the kernel here has no
// netem). Chunks are queued, not stopped: bytes keep flowing while earlier ones wait, as on a
// long line. It also counts, over all connections, the client's round trips (each time the
// client sends after the server has answered) and its statements, read from the client's side
// of the PostgreSQL or MySQL protocol, and can write every statement's text to a file.
// A benchmark tool, not a test: it runs until SIGTERM or SIGINT.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

enum class Protocol { kNone, kPostgres, kMysql };

struct Options {
    int listenPort = 0;
    std::string targetHost = "127.0.0.1";
    int targetPort = 0;
    std::chrono::microseconds delay{0};
    Protocol protocol = Protocol::kNone;
    std::string countsFile;
    std::string statementsFile;
};

[[noreturn]] void usage(const std::string& problem) {
    std::cerr << "bench_proxy: " << problem << "\n"
              << "usage: bench_proxy --to PORT [--to-host HOST] [--listen PORT] [--delay-us US]\n"
              << "       [--protocol postgres|mysql|none] [--counts FILE] [--statements FILE]\n"
              << "Prints the port it listens on (an ephemeral one without --listen).\n";
    std::exit(2);
}

int parsePort(const std::string& text) {
    try {
        const int port = std::stoi(text);
        if (port >= 0 && port <= 65535) return port;
    } catch (const std::exception&) {
    }
    usage("not a port: " + text);
}

Options parseOptions(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string name = argv[i];
        if (i + 1 >= argc) usage(name + " needs a value");
        const std::string value = argv[++i];
        if (name == "--listen") {
            options.listenPort = parsePort(value);
        } else if (name == "--to") {
            options.targetPort = parsePort(value);
        } else if (name == "--to-host") {
            options.targetHost = value;
        } else if (name == "--delay-us") {
            options.delay = std::chrono::microseconds(std::stol(value));
        } else if (name == "--protocol") {
            if (value == "postgres") {
                options.protocol = Protocol::kPostgres;
            } else if (value == "mysql") {
                options.protocol = Protocol::kMysql;
            } else if (value != "none") {
                usage("unknown protocol " + value);
            }
        } else if (name == "--counts") {
            options.countsFile = value;
        } else if (name == "--statements") {
            options.statementsFile = value;
        } else {
            usage("unknown option " + name);
        }
    }
    if (options.targetPort == 0) usage("--to is required");
    return options;
}

// Totals over every connection; rewritten to the counts file whenever a connection ends, so
// that a reader who waits for "open 0" after its client exited sees the whole run.
class Totals {
public:
    explicit Totals(std::string file) : file_(std::move(file)) {}

    void opened() {
        std::lock_guard<std::mutex> lock(mutex_);
        ++connections_;
        ++open_;
        writeLocked();
    }
    void closed(std::uint64_t roundTrips, std::uint64_t statements) {
        std::lock_guard<std::mutex> lock(mutex_);
        --open_;
        roundTrips_ += roundTrips;
        statements_ += statements;
        writeLocked();
    }

private:
    void writeLocked() const {
        if (file_.empty()) return;
        const std::string temporary = file_ + ".tmp";
        {
            std::ofstream out(temporary, std::ios::trunc);
            out << "connections " << connections_ << "\nopen " << open_ << "\nround_trips "
                << roundTrips_ << "\nstatements " << statements_ << "\n";
        }
        std::rename(temporary.c_str(), file_.c_str());
    }

    std::string file_;
    std::mutex mutex_;
    std::uint64_t connections_ = 0, open_ = 0, roundTrips_ = 0, statements_ = 0;
};

class StatementLog {
public:
    explicit StatementLog(const std::string& file) {
        if (!file.empty()) out_.open(file, std::ios::trunc);
    }
    bool enabled() const { return out_.is_open(); }
    void write(int connection, const std::string& kind, std::string text) {
        for (char& c : text) {
            if (c == '\n' || c == '\t' || c == '\r') c = ' ';
        }
        std::lock_guard<std::mutex> lock(mutex_);
        out_ << connection << '\t' << kind << '\t' << text << '\n';
        out_.flush();
    }

private:
    std::ofstream out_;
    std::mutex mutex_;
};

// Reads the client's side of the protocol chunk by chunk and counts the statements it runs:
// PostgreSQL simple queries ('Q') and executions of prepared ones ('E'); MySQL COM_QUERY and
// COM_STMT_EXECUTE. Each one's text (the prepared statement's, for an execution) goes to the
// log, cut at 300 bytes.
class ClientStream {
public:
    ClientStream(Protocol protocol, int connection, StatementLog& log)
        : protocol_(protocol), connection_(connection), log_(log) {}

    void feed(const char* data, std::size_t size) {
        if (protocol_ == Protocol::kNone) return;
        std::size_t at = 0;
        while (at < size) {
            if (remaining_ == 0) {
                header_.push_back(data[at++]);
                if (header_.size() == headerSize()) startMessage();
                continue;
            }
            const std::size_t take = std::min<std::size_t>(remaining_, size - at);
            if (body_.size() < kKeptBytes) {
                body_.append(data + at, std::min<std::size_t>(take, kKeptBytes - body_.size()));
            }
            at += take;
            remaining_ -= take;
            if (remaining_ == 0) endMessage();
        }
    }

    std::uint64_t statements() const { return statements_; }

private:
    static constexpr std::size_t kKeptBytes = 300;

    std::size_t headerSize() const {
        if (protocol_ == Protocol::kMysql) return 4;
        return startupPhase_ ? 4 : 5;  // the startup and SSL requests have no type byte
    }

    void startMessage() {
        const auto* h = reinterpret_cast<const unsigned char*>(header_.data());
        if (protocol_ == Protocol::kMysql) {
            remaining_ = h[0] | (h[1] << 8) | (h[2] << 16);
            type_ = static_cast<char>(h[3]);  // the sequence number: 0 starts a command
        } else {
            const std::size_t lengthAt = startupPhase_ ? 0 : 1;
            const std::uint32_t length = (std::uint32_t(h[lengthAt]) << 24) |
                                         (std::uint32_t(h[lengthAt + 1]) << 16) |
                                         (std::uint32_t(h[lengthAt + 2]) << 8) | h[lengthAt + 3];
            type_ = startupPhase_ ? '\0' : static_cast<char>(h[0]);
            remaining_ = length >= 4 ? length - 4 : 0;
        }
        header_.clear();
        body_.clear();
        if (remaining_ == 0) endMessage();
    }

    void endMessage() {
        if (protocol_ == Protocol::kMysql) {
            endMysqlPacket();
        } else {
            endPostgresMessage();
        }
        body_.clear();
    }

    void endPostgresMessage() {
        if (startupPhase_) {
            // Protocol 3.0 starts the session; an SSL or GSS request is answered first.
            const auto* b = reinterpret_cast<const unsigned char*>(body_.data());
            if (body_.size() >= 4 && b[0] == 0 && b[1] == 3 && b[2] == 0 && b[3] == 0) {
                startupPhase_ = false;
            }
            return;
        }
        if (type_ == 'Q') {
            ++statements_;
            logText("query", body_);
        } else if (type_ == 'P') {
            const std::string name = cString(body_, 0);
            prepared_[name] = cString(body_, name.size() + 1);
        } else if (type_ == 'B') {
            const std::string portal = cString(body_, 0);
            portals_[portal] = cString(body_, portal.size() + 1);
        } else if (type_ == 'E') {
            ++statements_;
            logText("execute", prepared_[portals_[cString(body_, 0)]]);
        }
    }

    static std::string cString(const std::string& text, std::size_t at) {
        if (at >= text.size()) return {};
        return text.substr(at, text.find('\0', at) - at);
    }

    void endMysqlPacket() {
        if (type_ != 0 || body_.empty()) return;  // a login or continuation packet
        const auto command = static_cast<unsigned char>(body_[0]);
        if (command == 0x03) {
            ++statements_;
            logText("query", body_.substr(1));
        } else if (command == 0x16) {
            lastPrepared_ = body_.substr(1);
        } else if (command == 0x17 && body_.size() >= 5) {
            ++statements_;
            // MariaDB numbers prepared statements server-wide; an id first seen belongs to the
            // statement prepared last (the drivers prepare a statement right before its first
            // execution).
            const auto* id = reinterpret_cast<const unsigned char*>(body_.data() + 1);
            const std::uint32_t number = id[0] | (id[1] << 8) | (id[2] << 16) | (id[3] << 24);
            auto known = preparedById_.emplace(number, lastPrepared_).first;
            logText("execute", known->second);
        }
    }

    void logText(const char* kind, const std::string& text) {
        if (!log_.enabled()) return;
        log_.write(connection_, kind, text.substr(0, text.find('\0')));
    }

    Protocol protocol_;
    int connection_;
    StatementLog& log_;
    bool startupPhase_ = true;
    std::string header_, body_;
    std::size_t remaining_ = 0;
    char type_ = 0;
    std::uint64_t statements_ = 0;
    std::map<std::string, std::string> prepared_, portals_;  // PostgreSQL: by name
    std::map<std::uint32_t, std::string> preparedById_;      // MySQL
    std::string lastPrepared_;
};

// The chunks of one direction, each passed on once its hold time is over. The forwarder shares
// the machine's cores with the client and the server, and whatever CPU it spends is taken from
// them, which a real line would not do: so a chunk is everything the socket has when the reader
// wakes (not 64 KiB at most), every chunk that is due goes in one wake-up, and one thread per
// direction both reads and sends, waiting in ppoll for bytes or for the next chunk's due time
// (a writer thread of its own cost a wake-up of another thread for every chunk).
class DelayedPipe {
public:
    DelayedPipe(int from, int to, std::chrono::microseconds delay)
        : from_(from), to_(to), delay_(delay) {}

    // Reads until the sender closes and every held chunk is sent; calls onChunk(data, size) for
    // each chunk as it arrives.
    template <typename OnChunk>
    void run(OnChunk onChunk) {
        std::deque<Chunk> held;
        std::string buffer;
        bool reading = true;
        while (reading || !held.empty()) {
            if (reading && waitForBytes(held)) {
                if (readChunk(buffer)) {
                    onChunk(buffer.data(), buffer.size());
                    held.push_back({Clock::now() + delay_, std::move(buffer)});
                    buffer = std::string();
                } else {
                    reading = false;
                }
            } else if (!reading) {
                std::this_thread::sleep_until(held.front().due);
            }
            if (!sendDue(held)) {
                ::shutdown(from_, SHUT_RD);
                break;
            }
        }
        ::shutdown(to_, SHUT_WR);
    }

private:
    struct Chunk {
        Clock::time_point due;
        std::string bytes;
    };

    static constexpr std::size_t kReadSize = 256 * 1024;
    static constexpr std::size_t kMaxChunk = 4 * 1024 * 1024;

    // Waits until bytes (or the end) arrive, or until the first held chunk is due; true when
    // there is something to read.
    bool waitForBytes(const std::deque<Chunk>& held) const {
        pollfd wanted{from_, POLLIN, 0};
        timespec wait{};
        timespec* timeout = nullptr;
        if (!held.empty()) {
            const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(
                held.front().due - Clock::now());
            if (left.count() > 0) {
                wait.tv_sec = static_cast<time_t>(left.count() / 1000000000);
                wait.tv_nsec = static_cast<long>(left.count() % 1000000000);
            }
            timeout = &wait;
        }
        return ::ppoll(&wanted, 1, timeout, nullptr) > 0;
    }

    // Waits for bytes, then takes what else has arrived without waiting; false at the end.
    bool readChunk(std::string& chunk) {
        chunk.resize(kReadSize);
        ssize_t n = ::read(from_, chunk.data(), kReadSize);
        if (n <= 0) return false;
        std::size_t size = static_cast<std::size_t>(n);
        while (size < kMaxChunk) {
            chunk.resize(size + kReadSize);
            n = ::recv(from_, chunk.data() + size, kReadSize, MSG_DONTWAIT);
            if (n <= 0) break;  // nothing more now; an end or error shows on the next read
            size += static_cast<std::size_t>(n);
        }
        chunk.resize(size);
        return true;
    }

    // Sends every held chunk that is due (they are held in due order); false when the
    // receiver is gone.
    bool sendDue(std::deque<Chunk>& held) {
        const Clock::time_point now = Clock::now();
        while (!held.empty() && held.front().due <= now) {
            if (!writeAll(held.front().bytes.data(), held.front().bytes.size())) return false;
            held.pop_front();
        }
        return true;
    }

    bool writeAll(const char* data, std::size_t size) {
        while (size > 0) {
            const ssize_t n = ::send(to_, data, size, MSG_NOSIGNAL);
            if (n <= 0) return false;
            data += n;
            size -= static_cast<std::size_t>(n);
        }
        return true;
    }

    int from_, to_;
    std::chrono::microseconds delay_;
};

int connectTo(const Options& options) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(options.targetPort));
    if (fd < 0 || ::inet_pton(AF_INET, options.targetHost.c_str(), &address.sin_addr) != 1 ||
        ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        std::perror("bench_proxy: connect");
        if (fd >= 0) ::close(fd);
        return -1;
    }
    return fd;
}

void noDelay(int fd) {
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

void serve(int client, int connection, const Options& options, Totals& totals, StatementLog& log) {
    const int server = connectTo(options);
    if (server < 0) {
        ::close(client);
        return;
    }
    noDelay(client);
    noDelay(server);
    totals.opened();
    // Written by the client's reader, read by the server's: whether the server has answered
    // since the client last sent.
    std::atomic<bool> answered{true};
    std::uint64_t roundTrips = 0;
    ClientStream stream(options.protocol, connection, log);
    DelayedPipe up(client, server, options.delay), down(server, client, options.delay);
    std::thread downstream(
        [&] { down.run([&](const char*, std::size_t) { answered.store(true); }); });
    up.run([&](const char* data, std::size_t size) {
        if (answered.exchange(false)) ++roundTrips;
        stream.feed(data, size);
    });
    downstream.join();
    ::close(client);
    ::close(server);
    totals.closed(roundTrips, stream.statements());
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = parseOptions(argc, argv);
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(options.listenPort));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener, 64) != 0 ||
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        std::perror("bench_proxy: listen");
        return 1;
    }
    std::cout << ntohs(address.sin_port) << std::endl;
    Totals totals(options.countsFile);
    StatementLog log(options.statementsFile);
    for (int connection = 1;; ++connection) {
        const int client = ::accept(listener, nullptr, nullptr);
        if (client < 0) continue;
        std::thread(serve, client, connection, std::cref(options), std::ref(totals), std::ref(log))
            .detach();
    }
}
