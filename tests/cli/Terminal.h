#pragma once

// A pseudo-terminal for a child's standard error: what `posenc` writes where a person watches,
// read back by the test. The child gets the terminal's far end as its fd 2.
#include <QByteArray>
#include <QProcess>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

class Terminal
{
public:
    Terminal()
    {
        m_master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
        if (m_master < 0 || grantpt(m_master) != 0 || unlockpt(m_master) != 0)
            return;
        const char *name = ptsname(m_master);
        m_slave = name ? ::open(name, O_RDWR | O_NOCTTY) : -1;
    }
    ~Terminal()
    {
        if (m_slave >= 0)
            ::close(m_slave);
        if (m_master >= 0)
            ::close(m_master);
    }
    Terminal(const Terminal &) = delete;
    Terminal &operator=(const Terminal &) = delete;

    bool isValid() const { return m_master >= 0 && m_slave >= 0; }

    // Makes the terminal the standard error of the process started next.
    void becomeStandardErrorOf(QProcess &process) const
    {
        const int slave = m_slave;
        process.setChildProcessModifier([slave] { ::dup2(slave, STDERR_FILENO); });
    }

    // Everything written to it so far, added to what was read before.
    QByteArray read()
    {
        char buffer[4096];
        for (;;) {
            const ssize_t n = ::read(m_master, buffer, sizeof(buffer));
            if (n <= 0)
                break;
            m_text.append(buffer, n);
        }
        return m_text;
    }

private:
    int m_master = -1;
    int m_slave = -1;
    QByteArray m_text;
};
