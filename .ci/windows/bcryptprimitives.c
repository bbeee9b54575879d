/* bcryptprimitives.dll for wine 8, which lacks it, so that the Windows build of loam can be run
 * by the CI's smoke test (.ci/windows-smoke). Rust's std imports ProcessPrng from it for random
 * numbers (HashMap seeds); without the DLL the exe dies at load with status c0000135. The shim
 * answers with RtlGenRandom (advapi32's SystemFunction036), which wine has. Test only: it never
 * ships in the zip, since every Windows loam supports (10 and later) has the real DLL. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG n = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, n))
            return FALSE;
        data += n;
        length -= n;
    }
    return TRUE;
}
