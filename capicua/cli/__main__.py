from capicua.cli import main

main()
