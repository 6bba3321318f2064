print("moya-demo")
